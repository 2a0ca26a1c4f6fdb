/** Named policies: the built-in `direct` and whatever users register. */
import { ConfigError } from '../../errors.js';
import { directPolicy, type Policy } from './policy.js';

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** A set of policies by name. `direct` is always there and cannot be replaced. */
export class PolicyRegistry {
  private readonly policies = new Map<string, Policy>([[directPolicy.name, directPolicy]]);

  /** Adds a policy; a taken name is refused unless `replace` is set. */
  register(policy: Policy, options: { replace?: boolean } = {}): void {
    if (typeof policy?.name !== 'string' || !NAME.test(policy.name)) {
      throw new ConfigError(
        `registerPolicy: the name ${JSON.stringify(policy?.name)} is not allowed; use letters, digits, - and _, starting with a letter.`,
        undefined,
        'name',
      );
    }
    if (typeof policy.decompose !== 'function') {
      throw new ConfigError(
        `registerPolicy: policy ${policy.name} has no decompose function.`,
        undefined,
        'decompose',
      );
    }
    if (policy.name === directPolicy.name) {
      throw new ConfigError(
        'registerPolicy: "direct" is built in and cannot be replaced; pick another name.',
        undefined,
        'name',
      );
    }
    if (this.policies.has(policy.name) && !options.replace) {
      throw new ConfigError(
        `registerPolicy: a policy named ${policy.name} is already registered; pass { replace: true } to replace it.`,
        undefined,
        'name',
      );
    }
    this.policies.set(policy.name, policy);
  }

  /** The policy named `name`; a ConfigError listing the registered names when there is none. */
  get(name: string): Policy {
    const policy = this.policies.get(name);
    if (!policy) {
      throw new ConfigError(
        `No policy named ${JSON.stringify(name)}. Registered: ${this.names().join(', ')}. Register it with registerPolicy(policy) first.`,
        undefined,
        'policy',
      );
    }
    return policy;
  }

  has(name: string): boolean {
    return this.policies.has(name);
  }

  /** Registered names, `direct` first. */
  names(): string[] {
    return [...this.policies.keys()];
  }
}

/** The registry `runPolicy` uses unless given another. */
export const defaultPolicies = new PolicyRegistry();

/** Registers a policy in the default registry. */
export function registerPolicy(policy: Policy, options: { replace?: boolean } = {}): void {
  defaultPolicies.register(policy, options);
}
