/**
 * Reading the numbers a team service enforces itself from its own edge policy
 * (its slice manifest's `service.edgePolicy`, which the shell's edge applies): each is declared once, there, and a
 * service whose policy lacks one stops at its start, naming what is missing.
 */

/** The fields of a declared route a service reads (the shell reads the whole policy). */
export interface DeclaredEdgeRoute {
  call: string;
  bodyLimitBytes?: number;
  rateLimit?: { max?: number; windowMs?: number; windows?: ReadonlyArray<{ max: number; windowMs: number }>; scope?: { pathParameter: string; maxLength: number } };
}

/** The fields of a declared form page a service reads. */
export interface DeclaredFormPage {
  page: string;
  maxBodyBytes?: number;
}

/** A service's edge policy as its JSON file declares it (only the fields services read). */
export interface DeclaredEdgePolicy {
  routes?: readonly DeclaredEdgeRoute[];
  formPages?: readonly DeclaredFormPage[];
}

/** Lookups in one service's declared edge policy; each throws when the policy lacks what is asked. */
export interface EdgePolicyReader {
  /** The route declared for `call`. */
  route(call: string): DeclaredEdgeRoute;
  /** The body limit (bytes) declared for `call`. */
  bodyLimit(call: string): number;
  /** The longest value of the path parameter that scopes `call`'s rate limit. */
  rateLimitScopeMaxLength(call: string): number;
  /** The largest post (bytes) declared for the form page `page`. */
  formPageMaxBodyBytes(page: string): number;
}

/**
 * Reads `policy`, a service's edge policy (its imported `slice.json`'s `service.edgePolicy`).
 * @param policy the declared policy
 * @param file how errors name the file; default `slice.json`
 */
export function readEdgePolicy(policy: DeclaredEdgePolicy, file = 'slice.json'): EdgePolicyReader {
  const route = (call: string): DeclaredEdgeRoute => {
    const declared = policy.routes?.find((entry) => entry.call === call);
    if (!declared) throw new Error(`${file} declares no ${call} call`);
    return declared;
  };
  return {
    route,
    bodyLimit(call) {
      const limit = route(call).bodyLimitBytes;
      if (!limit) throw new Error(`${file} declares no body limit for the ${call} call`);
      return limit;
    },
    rateLimitScopeMaxLength(call) {
      const maxLength = route(call).rateLimit?.scope?.maxLength;
      if (!maxLength) throw new Error(`${file} declares no rate-limit scope length for the ${call} call`);
      return maxLength;
    },
    formPageMaxBodyBytes(page) {
      const maxBodyBytes = policy.formPages?.find((entry) => entry.page === page)?.maxBodyBytes;
      if (!maxBodyBytes) throw new Error(`${file} declares no ${page} form page with maxBodyBytes`);
      return maxBodyBytes;
    },
  };
}
