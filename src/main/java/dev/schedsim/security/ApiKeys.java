package dev.schedsim.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The configured API keys. Only the SHA-256 of each secret is kept; a presented secret is hashed and compared
 * with every key in constant time ({@link MessageDigest#isEqual}, no early exit), so neither the comparison nor
 * the position of the matching key shows in the answer's timing.
 */
final class ApiKeys {
    private static final String SHA256 = "{sha256}";

    /** One key: the client's name, the secret's SHA-256 and the role. */
    record Key(String name, byte[] digest, Role role) {
    }

    private final List<Key> keys;

    private ApiKeys(List<Key> keys) {
        this.keys = keys;
    }

    /** Parses {@code name:secret:role} entries; a wrong entry stops the start with a message naming it. */
    static ApiKeys parse(List<String> entries) {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String e = entries.get(i);
            int first = e.indexOf(':');
            int last = e.lastIndexOf(':');
            String where = "schedsim.security.api-keys[" + i + "]";
            if (first <= 0 || last == first || last == e.length() - 1) {
                throw new IllegalArgumentException(where + " must be name:secret:role (role read, submit or admin)");
            }
            String name = e.substring(0, first);
            String secret = e.substring(first + 1, last);
            Role role;
            try {
                role = Role.parse(e.substring(last + 1));
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(where + ": " + x.getMessage());
            }
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException(where + ": the name must match [A-Za-z0-9._-]{1,64}");
            }
            byte[] digest;
            if (secret.startsWith(SHA256)) {
                String hex = secret.substring(SHA256.length());
                if (!hex.matches("[0-9a-fA-F]{64}")) {
                    throw new IllegalArgumentException(where + ": {sha256} must be followed by 64 hex digits");
                }
                digest = HexFormat.of().parseHex(hex.toLowerCase());
            } else if (secret.length() < 16) {
                throw new IllegalArgumentException(where + ": the secret must have at least 16 characters");
            } else {
                digest = sha256(secret);
            }
            keys.add(new Key(name, digest, role));
        }
        return new ApiKeys(List.copyOf(keys));
    }

    /** The key whose secret this is, compared with every key in constant time. */
    Optional<Key> match(String secret) {
        byte[] presented = sha256(secret);
        Key found = null;
        for (Key k : keys) {
            if (MessageDigest.isEqual(k.digest(), presented) && found == null) {
                found = k;
            }
        }
        return Optional.ofNullable(found);
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
