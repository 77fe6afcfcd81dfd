/**
 * The result document of a simulation (docs/api.md, "The result") as typed records: what {@link dev.schedsim.result.ResultBuilder}
 * builds from the engine's reports, what is stored and served as JSON ({@link dev.schedsim.result.ResultJson}),
 * and what the report page and the result gauges read back.
 */
package dev.schedsim.result;
