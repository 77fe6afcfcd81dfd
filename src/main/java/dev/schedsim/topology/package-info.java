/**
 * User-saved topologies: named explicit machine shapes, persisted, usable wherever a preset name is. The API
 * layer validates and interprets the stored definition; this package only keeps it.
 */
package dev.schedsim.topology;
