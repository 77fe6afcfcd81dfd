# SchedSim image: builds the Spring Boot fat jar with the committed Maven wrapper, then runs it on a
# JRE as a non-root user. Build: docker build -t schedsim .   Run: docker run -p 8080:8080 schedsim
# Without the `postgres` profile the service uses its embedded H2 file database under /app/data
# (a volume, so results survive container restarts).

# ---- build stage ----------------------------------------------------------------------------------
FROM eclipse-temurin:17-jdk-noble AS build
WORKDIR /build

# Wrapper and pom first: the dependency layer below is rebuilt only when these change.
# .mvn/wrapper holds the pinned Maven distribution that mvnw unpacks (no download needed).
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
RUN chmod +x mvnw && ./mvnw -B -ntp dependency:go-offline

COPY src/ src/
RUN ./mvnw -B -ntp -DskipTests package \
 && cp target/schedsim-0.1.0-SNAPSHOT.jar /build/app.jar

# ---- runtime stage --------------------------------------------------------------------------------
FROM eclipse-temurin:17-jre-noble

# Fixed uid/gid so a bind-mounted data directory can be chowned to match (chown 10001:10001 ./data).
RUN groupadd --gid 10001 schedsim \
 && useradd --uid 10001 --gid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin schedsim \
 && mkdir -p /app/data \
 && chown -R schedsim:schedsim /app

WORKDIR /app
COPY --from=build --chown=schedsim:schedsim /build/app.jar /app/app.jar

# The default (H2) profile writes its database under ./data, i.e. /app/data.
VOLUME ["/app/data"]

USER 10001:10001
EXPOSE 8080

# Size the heap from the container's memory limit; override with -e JAVA_TOOL_OPTIONS=...
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75.0"

# The Temurin Ubuntu images ship curl. Health is on the management port when one is set (docker-compose.yml).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD curl -fsS -o /dev/null "http://127.0.0.1:${MANAGEMENT_SERVER_PORT:-8080}/actuator/health" || exit 1

ENTRYPOINT ["java", "-jar", "/app/app.jar"]
