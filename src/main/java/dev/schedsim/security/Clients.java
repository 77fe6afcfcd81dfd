package dev.schedsim.security;

import java.util.Objects;
import java.util.Optional;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The client of the current request, as the API asks for it: who owns what it creates, and what it may see.
 * With security off there is no client: rows get no owner and everything is visible, as before security existed.
 * With it on, a non-admin client sees only rows it owns (others' answer 404, as if they did not exist), an admin
 * everything; rows without an owner (written while security was off) are admin-only. The service's own threads
 * (workers planning a run, the warm-up) have no request and see everything.
 */
@Component
public class Clients {
    /** No client name matches it: what an unauthenticated request on an open path may list. */
    private static final String NOBODY = "\u0000nobody";
    private final boolean enabled;

    Clients(SecurityMode mode) {
        this.enabled = mode.on();
    }

    /** Security off: no client, everything visible. */
    public static Clients off() {
        return new Clients(new SecurityMode(false, false));
    }

    /** The authenticated client, if security is on and this thread serves an authenticated request. */
    public Optional<Client> current() {
        Authentication a = SecurityContextHolder.getContext().getAuthentication();
        return a != null && a.getPrincipal() instanceof Client c ? Optional.of(c) : Optional.empty();
    }

    /** The owner to record on a new row: the client's name, null with security off. */
    public String owner() {
        return current().map(Client::name).orElse(null);
    }

    /** Whether the current client may see (and, by its role, change) a row owned by {@code owner}. */
    public boolean sees(String owner) {
        if (!enabled) {
            return true;
        }
        Optional<Client> c = current();
        if (c.isPresent()) {
            return c.get().admin() || Objects.equals(c.get().name(), owner);
        }
        return !onRequest();
    }

    /** The owner a list is filtered by: null for everyone's (security off, admin, the service itself). */
    public String listFilter() {
        if (!enabled) {
            return null;
        }
        Optional<Client> c = current();
        if (c.isPresent()) {
            return c.get().admin() ? null : c.get().name();
        }
        return onRequest() ? NOBODY : null;
    }

    private static boolean onRequest() {
        return RequestContextHolder.getRequestAttributes() != null;
    }
}
