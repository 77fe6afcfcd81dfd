/**
 * The OpenAPI document ({@code /v3/api-docs}, Swagger UI): the description, the request and response schemas
 * the controllers do not say themselves ({@link dev.schedsim.openapi.ApiContract}) and the examples, each of which
 * runs as shipped ({@link dev.schedsim.openapi.ApiExamples}).
 */
package dev.schedsim.openapi;
