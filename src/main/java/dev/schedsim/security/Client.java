package dev.schedsim.security;

import java.security.Principal;

/** An authenticated client: the name of its API key (the owner of what it submits) and the key's role. */
public record Client(String name, Role role) implements Principal {
    public boolean admin() {
        return role == Role.ADMIN;
    }

    @Override
    public String getName() {
        return name;
    }
}
