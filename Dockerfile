# onramp serve in a container. Build: docker build -t onrampkit .
# Run:   docker run --rm -p 8080:8080 -v onramp-data:/data onrampkit
# Two instances on one PostgreSQL: docker compose up (compose.yaml).
#
# No container engine runs where this project is built, so this file is not built in CI; what it runs is:
# scripts/container-rootfs.sh builds the runtime stage's root filesystem from the same package list with
# debootstrap, copies the same statically linked binary in, and serves /healthz and `onramp demo` in a
# chroot (its output is quoted in the README).

# The build stage: the official Swift image (Debian 12) with the C libraries' headers.
FROM swift:6.3-bookworm AS build
COPY container/build-packages.txt /tmp/build-packages.txt
RUN apt-get update \
    && xargs apt-get install -y --no-install-recommends < /tmp/build-packages.txt \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The Swift runtime and Foundation are linked in: the runtime stage needs no Swift.
RUN swift build -c release --static-swift-stdlib --product onramp \
    && install -D .build/release/onramp /out/onramp

# The runtime stage: Debian slim with only the C libraries the binary links (and curl for the health check).
FROM debian:bookworm-slim
COPY container/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && xargs apt-get install -y --no-install-recommends < /tmp/runtime-packages.txt \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
    && useradd --system --uid 10001 --home-dir /data --create-home onramp
COPY --from=build /out/onramp /usr/local/bin/onramp
USER onramp
WORKDIR /data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["onramp"]
# --public-url is what links handed to clients say; set it to the address clients use.
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--database", "sqlite:/data/onramp.db", \
     "--public-url", "http://localhost:8080"]
