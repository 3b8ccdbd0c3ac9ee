# Production image of the gateway. Build: docker build -t video-gateway .
# Node 24 LTS, the versions of scripts/node.sh (CI's): better-sqlite3 is compiled from source against
# 24.18.1's headers, since from 24.19 on their ObjectWrap aborts the process when a statement is
# garbage-collected; the binary runs on any 24.x, so the image runs the newer release.
FROM node:24.18.1-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm_config_build_from_source=true npm_config_nodedir=/usr/local npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
COPY config ./config
RUN npm run build && npm prune --omit=dev

FROM node:24.21.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/config ./config
COPY package.json ./
# The image's unprivileged user owns only what the gateway writes (data/: SQLite, kept results, the admin token file).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The heap flag: see docs/hand-written.md (old space grows to 2x the live heap, not 4x: ~100 MB less RSS).
# No --expose-gc: forced scavenges showed no gain outside the noise (docs/hand-written.md, "idle scavenges").
CMD ["node", "--heap-growing-percent=100", "dist/src/main.js"]
