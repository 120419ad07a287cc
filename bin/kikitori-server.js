#!/usr/bin/env node
// Thin launcher so `npx kikitori-server` runs the compiled CLI.
import '../dist/src-server/cli.js';
