package dev.schedsim.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.schedsim.EndToEnd;
import dev.schedsim.Http;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * OAuth2 resource server next to the API keys, against the running service: access tokens (JWT, RS256) signed by
 * a key pair made here, the service given its public key ({@code spring.security.oauth2.resourceserver.jwt.
 * public-key-location}; an issuer-uri works the same way). The token's subject is the client, its
 * {@code schedsim:<role>} scope the role: ownership and roles as for keys; expired, foreign-signed or roleless
 * tokens are refused with problems; an API key still works beside them.
 */
class JwtClientsTests {
    static final String ROOT = "root-admin-secret-000001";

    @TempDir
    Path dir;

    @Test
    void tokensAreClientsWithTheRolesOfTheirScopes() throws Exception {
        KeyPair issuer = rsa();
        KeyPair stranger = rsa();
        Path pem = dir.resolve("issuer.pem");
        Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(issuer.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        try (ConfigurableApplicationContext ctx = EndToEnd.start(List.of(
                "spring.datasource.url=jdbc:h2:mem:jwt-clients;DB_CLOSE_DELAY=-1", "spring.datasource.username=sa",
                "spring.datasource.password=", "schedsim.workers=1", "schedsim.warmup=0s",
                "schedsim.security.api-keys=root:" + ROOT + ":admin",
                "spring.security.oauth2.resourceserver.jwt.public-key-location=file:" + pem))) {
            Http http = EndToEnd.http(ctx);
            Http carol = http.withKey(token(issuer.getPrivate(), "carol", "openid schedsim:submit", 600));
            Http carolReads = http.withKey(token(issuer.getPrivate(), "carol", "schedsim:read", 600));
            Http dave = http.withKey(token(issuer.getPrivate(), "dave", "schedsim:submit schedsim:read", 600));

            String id = EndToEnd.submit(carol, EndToEnd.FAIR_SHARE);
            assertThat(carol.get("/api/v1/simulations/" + id).statusCode()).isEqualTo(200);
            assertThat(carolReads.get("/api/v1/simulations/" + id).statusCode()).isEqualTo(200);
            assertThat(problem(carolReads.post("/api/v1/simulations", EndToEnd.FAIR_SHARE), 403)).isEqualTo("forbidden");
            assertThat(problem(dave.get("/api/v1/simulations/" + id), 404)).isEqualTo("not-found");
            assertThat(Http.json(dave.get("/api/v1/simulations")).path("totalElements").asLong()).isZero();
            // An API key beside the tokens: the admin sees carol's simulation.
            assertThat(http.withKey(ROOT).get("/api/v1/simulations/" + id).statusCode()).isEqualTo(200);

            assertThat(problem(http.withKey(token(issuer.getPrivate(), "carol", "schedsim:submit", -600))
                    .get("/api/v1/simulations"), 401)).isEqualTo("unauthorized");
            assertThat(problem(http.withKey(token(stranger.getPrivate(), "carol", "schedsim:admin", 600))
                    .get("/api/v1/simulations"), 401)).isEqualTo("unauthorized");
            assertThat(problem(http.withKey(token(issuer.getPrivate(), "erin", "openid profile", 600))
                    .get("/api/v1/simulations"), 403)).isEqualTo("forbidden");
            // A subject longer than the owner column owns its simulations under a digest of it.
            Http longName = http.withKey(token(issuer.getPrivate(), "x".repeat(200) + "@example.org",
                    "schedsim:submit", 600));
            String theirs = EndToEnd.submit(longName, EndToEnd.FAIR_SHARE);
            assertThat(longName.get("/api/v1/simulations/" + theirs).statusCode()).isEqualTo(200);
            assertThat(problem(carol.get("/api/v1/simulations/" + theirs), 404)).isEqualTo("not-found");
            carol.awaitFinished(id);
            assertThat(problem(dave.delete("/api/v1/simulations/" + id), 404)).isEqualTo("not-found");
            assertThat(carol.delete("/api/v1/simulations/" + id).statusCode()).isEqualTo(204);
        }
    }

    private static String problem(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                c -> assertThat(c).startsWith("application/problem+json"));
        String type = Http.json(r).path("type").asString();
        return type.substring(type.lastIndexOf('/') + 1);
    }

    private static KeyPair rsa() throws NoSuchAlgorithmException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    /** An RS256 access token for {@code subject} with {@code scope}, expiring in {@code seconds} (past if < 0). */
    private static String token(PrivateKey key, String subject, String scope, long seconds) throws JOSEException {
        long now = System.currentTimeMillis();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).claim("scope", scope)
                .issueTime(new Date(now - 120_000)).expirationTime(new Date(now + seconds * 1000)).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
