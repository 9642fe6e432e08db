/**
 * Property of an input event that hands text typed before a box hydrated over to it: the
 * `performance.now()` time of the last keystroke, from which the debounce counts (the list's
 * binding sets it, `SearchCombobox` reads it). Kept apart so the binding's chunk needs no React.
 */
export const TYPED_AT_PROPERTY = 'khsTypedAt';
