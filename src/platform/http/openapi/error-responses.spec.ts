import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorDialect, GatewayError } from '../../errors';
import {
  ApiErrorResponses,
  ERROR_CAUSES,
  EXAMPLE_REQUEST_ID,
  ErrorCause,
  NamedDialect,
  modelErrors,
} from './error-responses';

const FX: NamedDialect = {
  name: 'FxErrorAnswer',
  dialect: {
    pathPrefix: '/fx/',
    nativeFields: (err, requestId) => ({ code: err.status * 10, meta: { trace: requestId }, data: null }),
  } satisfies ErrorDialect,
};

type Media = { schema: { $ref: string }; examples: Record<string, { summary: string; value: unknown }> };
type Documented = Record<string, { description: string; headers?: object; content: { 'application/json': Media } }>;

/** The OpenAPI document of one GET route carrying `decorator`. */
async function documentOf(decorator: MethodDecorator & ClassDecorator): Promise<OpenAPIObject> {
  @Controller('fx')
  class FxController {
    @Get()
    @decorator
    handler(): void {}
  }
  @Module({ controllers: [FxController] })
  class FxModule {}
  const app = await NestFactory.create(FxModule, { logger: false });
  try {
    return SwaggerModule.createDocument(app, new DocumentBuilder().build());
  } finally {
    await app.close();
  }
}

const responsesOf = (doc: OpenAPIObject) => doc.paths['/fx'].get!.responses as Documented;

describe('ApiErrorResponses', () => {
  it("documents each cause's answer as the error writer builds it, in the dialect given", async () => {
    const responses = responsesOf(await documentOf(ApiErrorResponses(FX, [ERROR_CAUSES.unauthorized])));
    expect(responses['401'].content['application/json'].examples).toEqual({
      invalid_api_key: {
        summary: 'invalid_api_key',
        value: {
          error: {
            message: 'Missing API key: send Authorization: Bearer <API key>.',
            type: 'authentication_error',
            param: null,
            code: 'invalid_api_key',
          },
          code: 4010,
          meta: { trace: EXAMPLE_REQUEST_ID },
          data: null,
        },
      },
    });
  });

  it('without a dialect, documents the gateway error object alone', async () => {
    const doc = await documentOf(ApiErrorResponses(null, [ERROR_CAUSES.internal]));
    const media = responsesOf(doc)['500'].content['application/json'];
    expect(Object.keys(media.examples.internal_error.value as object)).toEqual(['error']);
    expect(media.schema.$ref).toBe('#/components/schemas/ErrorAnswer');
  });

  it('gathers the causes of one status into one response with an example each', async () => {
    const causes = [...modelErrors('m1', 'model'), ERROR_CAUSES.insufficientQuota];
    const responses = responsesOf(await documentOf(ApiErrorResponses(null, causes)));
    expect(Object.keys(responses).sort()).toEqual(['403', '404']);
    expect(Object.keys(responses['403'].content['application/json'].examples)).toEqual([
      'permission_denied',
      'insufficient_quota',
    ]);
    expect(responses['403'].description).toContain(ERROR_CAUSES.insufficientQuota.when);
  });

  it("names the dialect's answer once among the schemas, described from the answer itself", async () => {
    const doc = await documentOf(ApiErrorResponses(FX, [ERROR_CAUSES.internal, ERROR_CAUSES.unavailable]));
    for (const status of ['500', '503'])
      expect(responsesOf(doc)[status].content['application/json'].schema.$ref).toBe(
        '#/components/schemas/FxErrorAnswer',
      );
    const schemas = doc.components!.schemas!;
    expect(schemas.FxErrorAnswer).toMatchObject({
      type: 'object',
      required: ['error', 'code', 'meta', 'data'],
      properties: {
        error: { $ref: '#/components/schemas/ErrorObject' },
        code: { type: 'integer' },
        meta: { $ref: '#/components/schemas/FxErrorAnswerMeta' },
        data: { nullable: true },
      },
    });
    expect(schemas.ErrorObject).toMatchObject({
      required: ['message', 'type', 'param', 'code'],
      properties: { param: { type: 'string', nullable: true }, code: { type: 'string' } },
    });
    expect(schemas.FxErrorAnswerMeta).toMatchObject({ properties: { trace: { type: 'string' } } });
  });

  it('documents the headers an error carries (Retry-After on 429)', async () => {
    const limited = responsesOf(await documentOf(ApiErrorResponses(null, [ERROR_CAUSES.rateLimited])));
    expect(Object.keys(limited['429'].headers ?? {})).toEqual(['Retry-After']);
    const plain: ErrorCause = { name: 'x', error: GatewayError.invalid('x'), when: 'x' };
    const refused = responsesOf(await documentOf(ApiErrorResponses(null, [plain])));
    expect(refused['400'].headers).toBeUndefined();
  });
});
