import { defineConfig } from "@adonisjs/shield";

export default defineConfig({
  csp: { enabled: false, directives: {}, reportOnly: false },
  csrf: {
    enabled: true,
    // JSON API calls carry no session form token (as the Wisent apps' JSON create).
    exceptRoutes: (ctx) => ctx.request.accepts(["html", "json"]) === "json",
    enableXsrfCookie: false,
    methods: ["POST", "PUT", "PATCH", "DELETE"],
  },
  xFrame: { enabled: true, action: "DENY" },
  hsts: { enabled: true, maxAge: "180 days" },
  contentTypeSniffing: { enabled: true },
});
