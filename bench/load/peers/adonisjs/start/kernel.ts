import router from "@adonisjs/core/services/router";
import server from "@adonisjs/core/services/server";

server.errorHandler(() => import("#exceptions/handler"));

server.use([
  () => import("#middleware/container_bindings_middleware"),
  () => import("#middleware/request_log_middleware"),
]);

/*
 * PEER_KIT=api runs the middleware of the API starter kit (the body parser, no session, no
 * shield): the peer of the Wisent API app. Otherwise the web starter kit's: the peer of the shop.
 */
router.use(
  process.env.PEER_KIT === "api"
    ? [() => import("@adonisjs/core/bodyparser_middleware")]
    : [
        () => import("@adonisjs/core/bodyparser_middleware"),
        () => import("@adonisjs/session/session_middleware"),
        () => import("@adonisjs/shield/shield_middleware"),
      ],
);

export const middleware = router.named({});
