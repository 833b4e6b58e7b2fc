import router from "@adonisjs/core/services/router";

const WidgetsController = () => import("#controllers/widgets_controller");

router.get("/widgets", [WidgetsController, "index"]);
router.post("/widgets", [WidgetsController, "store"]);
router.get("/widgets/:id", [WidgetsController, "show"]);
