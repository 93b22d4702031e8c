# Production image: one stateless worker. Run as many as you like behind a load balancer,
# all pointing at one Postgres (DATABASE_URL); migrations run once under a lock at start-up.
FROM node:20-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/.data

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts=false && npm cache clean --force
COPY core ./core
COPY schema ./schema
COPY mcp-server ./mcp-server
COPY agent ./agent
COPY bot ./bot
COPY local-slack ./local-slack
COPY scripts ./scripts
COPY evals ./evals
COPY tsconfig.json manifest.yml ./

# Postgres (embedded fallback) refuses root; run everything as the image's unprivileged user.
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node

EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "scripts/start.ts"]
