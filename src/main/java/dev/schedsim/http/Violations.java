package dev.schedsim.http;

import java.util.ArrayList;
import java.util.List;

/** Collects every violation of a request so that a client sees them all at once. */
public final class Violations {
    private final List<Violation> list = new ArrayList<>();

    public void add(String field, String message) {
        list.add(new Violation(field, message));
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    /** Whether a violation from index {@code from} on names {@code field}. */
    public boolean namesSince(int from, String field) {
        for (int i = from; i < list.size(); i++) {
            if (list.get(i).field().equals(field)) {
                return true;
            }
        }
        return false;
    }

    /** Renames the field prefix {@code from} to {@code to} in the violations from index {@code since} on. */
    public void rename(int since, String from, String to) {
        for (int i = since; i < list.size(); i++) {
            Violation x = list.get(i);
            if (x.field().equals(from) || x.field().startsWith(from + ".")) {
                list.set(i, new Violation(to + x.field().substring(from.length()), x.message()));
            }
        }
    }

    public int size() {
        return list.size();
    }

    /** Throws a 400 when anything was collected. */
    public void throwIfAny() {
        if (!list.isEmpty()) {
            throw new InvalidRequestException(false, list);
        }
    }
}
