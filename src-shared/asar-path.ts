// Inside a packaged Electron app, modules resolve to paths in resources/app.asar, an archive only
// Electron's own fs can read. Files listed in electron-builder's `asarUnpack` also exist as real files
// in resources/app.asar.unpacked, and that is the path a program must be spawned or dlopen'ed from.

/** `file` with its app.asar segment replaced by app.asar.unpacked; unchanged outside an asar. */
export function unpackedAsarPath(file: string): string {
  return file.replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked');
}
