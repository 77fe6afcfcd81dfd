package dev.schedsim.security;

/**
 * What a key may do. {@code READ}: GET of the catalogs and of its own simulations and topologies; {@code SUBMIT}:
 * also submitting, cancelling and deleting its own; {@code ADMIN}: everything, everyone's, and the actuator.
 */
public enum Role {
    READ, SUBMIT, ADMIN;

    /** The Spring Security role name (authority ROLE_…). */
    String role() {
        return name();
    }

    static Role parse(String s) {
        for (Role r : values()) {
            if (r.name().equalsIgnoreCase(s)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown role '" + s + "' (read, submit or admin)");
    }
}
