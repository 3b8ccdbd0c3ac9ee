import { ApiBody } from '@nestjs/swagger';

/** A POST that takes no input: documented as an empty object (whatever is sent is not read). */
export const ApiEmptyBody = (): MethodDecorator =>
  ApiBody({ schema: { type: 'object', example: {}, description: 'An empty object: nothing is read' } });
