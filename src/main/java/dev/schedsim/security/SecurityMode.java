package dev.schedsim.security;

/**
 * Whether security is on: API keys configured, or a JWT decoder (an OAuth2 resource server: an issuer, a JWK set
 * or a public key under spring.security.oauth2.resourceserver.jwt.*). Decided once, read by the filter chain and
 * by {@link Clients}.
 */
record SecurityMode(boolean on, boolean jwt) {
}
