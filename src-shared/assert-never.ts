// The end of a switch over a closed union: the compiler refuses the call while a member is unhandled,
// and at run time a value from outside the union (a newer peer, a corrupt cache row) fails loudly here.
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
