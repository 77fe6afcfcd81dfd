/**
 * The service's JSON formats, one owner ({@link dev.schedsim.json.Json}): what clients send, what the service
 * stores and reads back, the stored plan, and YAML requests. Shared by every feature; it uses none.
 */
package dev.schedsim.json;
