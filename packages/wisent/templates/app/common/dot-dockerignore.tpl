# Kept out of the image (docker build's context): what npm ci and wisent build make inside it,
# local databases, secrets and history, and tmp/ (development's session secret, uploads'
# temporary files).
.git
node_modules
dist
coverage
db/*.sqlite*
tmp
.env
.env.*
!.env.example
*.log
Dockerfile
.dockerignore
