// oidc-provider 9 ships no types: the SSO tests use its constructor and Koa callback only.
declare module 'oidc-provider' {
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => { callback(): (req: unknown, res: unknown) => void };
  export default Provider;
}
