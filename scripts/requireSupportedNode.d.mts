/** Whether Node `current` ("24.1.0") satisfies `range` (`^x.y.z`, `>=x.y.z` or `x.y.z`, joined by `||`); another form throws. */
export function nodeSatisfies(current: string, range: string): boolean;
/** The one line for a Node that is too old (naming `command` under scripts/with-node24.sh), or undefined when `current` is supported. */
export function unsupportedNodeLine(current: string, range: string, command: string): string | undefined;
