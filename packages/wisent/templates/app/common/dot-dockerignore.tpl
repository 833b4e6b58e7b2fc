# Kept out of the image (docker build's context): what npm ci and wisent build make inside it,
# local databases, secrets and history.
.git
node_modules
dist
coverage
db/*.sqlite*
.env
.env.*
!.env.example
*.log
Dockerfile
.dockerignore
