/**
 * node-oidc-provider, the partner authorization server of the federation tests. On import it warns that Node 20 is
 * not a runtime it supports; the tests run it on the machine's Node 20 on purpose, so that one known line is dropped
 * here instead of appearing in every test run. Any other warning passes through.
 */
const UNSUPPORTED_RUNTIME = "oidc-provider WARNING: Unsupported runtime";

const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (!String(args[0]).startsWith(UNSUPPORTED_RUNTIME)) warn(...args);
};
const { default: Provider } = await import("oidc-provider");
console.warn = warn;

export default Provider;
