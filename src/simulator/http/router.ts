import { NativeErrors, SimAnswer, SimHandler, SimRequest } from './sim-answer';

export interface Route {
  method: 'GET' | 'POST';
  /** Anchored regular expression on the pathname; capture groups become `params`. */
  pattern: RegExp;
  handle(request: SimRequest, params: string[]): SimAnswer | Promise<SimAnswer>;
}

/** A handler that dispatches to the first matching route, else the family's native 404. */
export function routeTable(routes: readonly Route[], errors: NativeErrors): SimHandler {
  return (request) => {
    for (const route of routes) {
      if (route.method !== request.method) continue;
      const match = route.pattern.exec(request.pathname);
      if (!match) continue;
      let params: string[];
      try {
        params = match.slice(1).map((part) => decodeURIComponent(part));
      } catch {
        return errors.notFound(`malformed path ${request.pathname}`);
      }
      return route.handle(request, params);
    }
    return errors.notFound(`no route for ${request.method} ${request.pathname}`);
  };
}
