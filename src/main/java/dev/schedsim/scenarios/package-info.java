/**
 * The built-in scenario library ({@code /api/v1/scenarios}, docs/api.md): ready requests stored as
 * {@code scenarios/*.json} resources, their published figures in {@code scenarios/catalog.json}, served and run
 * through the ordinary submission path.
 */
package dev.schedsim.scenarios;
