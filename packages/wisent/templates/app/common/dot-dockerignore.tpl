# Kept out of the image (docker build's context): what npm ci and wisent build make inside it,
# development's files (local databases, uploads, tmp/ with its session secret and uploads'
# temporary files, logs, coverage), secrets and history. The image makes its own empty
# storage/, tmp/ and db/.
.git
node_modules
dist
coverage
.wisent
db/*.sqlite*
storage
tmp
.env
.env.*
!.env.example
*.log
Dockerfile
.dockerignore
