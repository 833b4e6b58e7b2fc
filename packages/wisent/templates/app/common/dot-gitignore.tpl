node_modules/
dist/
coverage/
db/*.sqlite*
.env
*.log
