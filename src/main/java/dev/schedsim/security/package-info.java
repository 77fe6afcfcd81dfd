/**
 * Who may do what: API keys ({@code schedsim.security.api-keys}) and their roles, the Spring Security filter chain
 * (off until keys are configured), the current client as the other layers ask for it (owner of new rows, what it
 * may see) and the per-client submission limits.
 */
package dev.schedsim.security;
