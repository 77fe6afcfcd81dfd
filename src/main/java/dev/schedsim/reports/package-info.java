/**
 * The human-readable report of a finished simulation ({@code GET /api/v1/simulations/{id}/report}): Markdown and
 * HTML with the comparison as kernel patch postings print it and inline SVG plots drawn from the stored time
 * series. Rendering reads only the stored plan and result, so it is deterministic and survives restarts.
 */
package dev.schedsim.reports;
