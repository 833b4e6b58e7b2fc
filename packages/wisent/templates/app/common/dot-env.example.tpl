# Copy to .env (ignored by git) and adjust. `wisent dev`, `start`, `migrate` and `routes` read it;
# variables already set in the environment win.

# development, test or production (GO_ENV wins over NODE_ENV).
GO_ENV=development

# The database: sqlite:<file>, postgres://user:password@host:5432/name or mysql://user:password@host:3306/name.
# Without it: sqlite:db/<environment>.sqlite. The tests (GO_ENV=test) use its _test twin
# (<name>_test, or db/test.sqlite), or TEST_DATABASE_URL when set.
DATABASE_URL=@@databaseUrl@@

# Seals the session cookie; at least 32 characters. Required in production
# (node -e "console.log(crypto.randomBytes(32).toString('hex'))").
SESSION_SECRET=

# Where the server listens.
PORT=3000
HOST=127.0.0.1
