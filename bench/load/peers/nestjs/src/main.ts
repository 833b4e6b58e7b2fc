import "reflect-metadata";
import helmet from "@fastify/helmet";
import { UnprocessableEntityException, ValidationPipe } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { AppModule } from "./app.module";

async function bootstrap() {
  const adapter = new FastifyAdapter({
    // One JSON line per request (the onResponse hook below), as the Wisent app logs.
    logger: { level: "info" },
    disableRequestLogging: true,
    trustProxy: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, {
    logger: ["error", "warn"],
  });
  await app.register(helmet);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      transform: true,
      errorHttpStatusCode: 422,
      exceptionFactory: (errors) =>
        new UnprocessableEntityException({
          errors: Object.fromEntries(
            errors.map((e) => [e.property, Object.values(e.constraints ?? {})]),
          ),
        }),
    }),
  );
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook("onResponse", async (request, reply) => {
    const path = request.url.split("?")[0];
    request.log.info({
      msg: `${request.method} ${path} ${reply.statusCode}`,
      method: request.method,
      path,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      params: { ...(request.query as object), ...(request.params as object) },
    });
  });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
}
void bootstrap();
