# Production image: one stateless worker. Run as many as you like behind a load balancer,
# all pointing at one Postgres (DATABASE_URL); migrations run once under a lock at start-up.
# scripts/image-steps.sh performs these same steps on a host without a Docker engine.

# Build: every dependency, the TypeScript compiled to dist/ (npm run build).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts=false --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY core ./core
COPY schema ./schema
COPY mcp-server ./mcp-server
COPY agent ./agent
COPY bot ./bot
COPY local-slack ./local-slack
COPY scripts ./scripts
RUN npm run build

# Runtime: production dependencies and dist/ only; no tsx, no sources, no evals or test tooling.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts stay on: the embedded Postgres binaries are completed by one (hydrate-symlinks).
RUN npm ci --omit=dev --ignore-scripts=false --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist

# Postgres (embedded fallback) refuses root; run everything as the image's unprivileged user.
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node

EXPOSE 3000
# Liveness (/healthz), what a restart should follow; /readyz (rotation) also fails when Slack itself is down,
# which no restart mends. See docs/deploy.md.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(+!r.ok),()=>process.exit(1))"
CMD ["node", "--max-semi-space-size=4", "--max-old-space-size=512", "dist/scripts/start.js"]
