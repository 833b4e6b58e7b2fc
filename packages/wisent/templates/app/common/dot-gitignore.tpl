node_modules/
dist/
coverage/
db/*.sqlite*
.env
*.log
# development's random session secret (tmp/local_secret.txt), made on first start
tmp/
