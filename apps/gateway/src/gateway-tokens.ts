/** The validated GatewayEnv, for providers that read a setting. */
export const GATEWAY_ENV = Symbol('GATEWAY_ENV');
