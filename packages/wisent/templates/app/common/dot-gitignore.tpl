node_modules/
dist/
coverage/
db/*.sqlite*
.env
*.log
# development's random session secret (tmp/local_secret.txt), made on first start
tmp/
# uploaded files on the local disk (STORAGE_URL unset): see docs/guides/files-and-uploads.md
storage/
