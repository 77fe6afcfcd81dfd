/**
 * The HTTP plumbing every feature shares: request bodies read within their limits ({@link dev.schedsim.http.RequestReader}:
 * size, time, concurrent reads, strict JSON or YAML), the JSON formats ({@link dev.schedsim.http.Json}), and every
 * error as an RFC 9457 problem ({@link dev.schedsim.http.ProblemHandlers}) with the exceptions that carry one.
 * It depends on no feature package: features throw its exceptions, it answers them.
 */
package dev.schedsim.http;
