# Copy to .env (ignored by git) and adjust. `wisent dev`, `start`, `migrate` and `routes` read it;
# variables already set in the environment win.

# development, test or production (GO_ENV wins over NODE_ENV). Any other name (staging, ...)
# runs with production's defaults.
GO_ENV=development

# The database: sqlite:<file>, postgres://user:password@host:5432/name or mysql://user:password@host:3306/name.
# Without it: sqlite:db/<environment>.sqlite. The tests (GO_ENV=test) use its _test twin
# (<name>_test, or db/test.sqlite), or TEST_DATABASE_URL when set.
DATABASE_URL=@@databaseUrl@@

# Seals the session cookie; at least 32 characters; make one with `npx wisent secret`.
# Required in every environment but development (which makes its own in tmp/local_secret.txt)
# and test (a random one per run).
SESSION_SECRET=

# The app's public URL: absolute URLs (redirects, Location, pagination Link) are built from it,
# and its host is allowed. Without it they follow the request (and a trusted proxy's scheme).
# APP_URL=https://shop.example.com

# Behind a proxy (a load balancer, a TLS terminator): its addresses or CIDR ranges. Only from
# these peers are X-Forwarded-For (client address: rate limits, logs) and X-Forwarded-Proto
# (HTTPS: force-SSL) believed; without it, production redirects every proxied request to https.
# TRUSTED_PROXY_HEADER=forwarded when the proxy writes RFC 7239's Forwarded instead.
# TRUSTED_PROXIES=10.0.0.0/8

# In production, requests for any other host answer 400 (as Rails' host authorization).
# Comma-separated; ".example.com" allows every subdomain. APP_URL's host is allowed already.
# ALLOWED_HOSTS=www.example.com,.example.com

# Where uploaded files (attachments) go: unset is the storage/ folder; file:<folder> another
# folder; s3://bucket?region=eu-west-1 a bucket (endpoint=http://host:9000 for S3-compatible
# servers; needs npm install @aws-sdk/client-s3 @aws-sdk/s3-request-presigner).
# STORAGE_URL=s3://my-bucket?region=eu-west-1

# Where the server listens.
PORT=3000
HOST=127.0.0.1
