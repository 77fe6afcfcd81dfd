package dev.schedsim.api;

/**
 * One rule a request broke: the field path ({@code cgroups[1].cpuMax}, {@code kernel.features.FOO}) and why.
 */
public record Violation(String field, String message) {
}
