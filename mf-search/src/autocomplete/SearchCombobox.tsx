import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_INPUT_MAX_LENGTH } from 'contracts';
import { HighlightedText } from '../highlight/HighlightedText.js';
import { highlightContainment } from '../highlight/parseHighlight.js';
import { createKeystrokeClock, TYPED_AT_PROPERTY } from './typedAt.js';
import type { Autocomplete } from './useAutocomplete.js';

export interface SearchComboboxProps {
  /** State and handlers from `useAutocomplete`. */
  autocomplete: Autocomplete;
  /** Visible (or visually hidden) label of the input. */
  label: string;
  /** Placeholder of the input. Default none. */
  placeholder?: string;
  /** Form field name, so the box still works as a plain GET form. Default `q`. */
  name?: string;
  /** Hide the label visually (header). Default `false`. */
  hideLabel?: boolean;
  /** Class of the wrapper. Default `khs-search-combobox`. */
  className?: string;
}

/**
 * A search input with a suggestion listbox, following the WAI-ARIA combobox pattern (list
 * autocomplete): `aria-expanded`, `aria-controls`, `aria-activedescendant`, options with
 * `aria-selected`. An outside click closes the panel.
 */
export function SearchCombobox({
  autocomplete,
  label,
  placeholder,
  name = 'q',
  hideLabel = false,
  className = 'khs-search-combobox',
}: SearchComboboxProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const listboxId = `${id}-listbox`;
  const root = useRef<HTMLDivElement>(null);
  const [keystrokes] = useState(createKeystrokeClock);
  const { inputValue, status, suggestions, activeIndex, close } = autocomplete;
  const expanded = status === 'open' && suggestions.length > 0;

  useEffect(() => {
    if (!expanded) return;
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && event.target instanceof Node && !root.current.contains(event.target)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [expanded, close]);

  return (
    <div ref={root} className={className} data-status={status}>
      <label htmlFor={inputId} className={hideLabel ? 'khs-search-visually-hidden' : `${className}__label`}>
        {label}
      </label>
      <input
        id={inputId}
        type="search"
        name={name}
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={expanded && activeIndex >= 0 ? `${listboxId}-${activeIndex}` : undefined}
        aria-busy={status === 'loading' || status === 'stalled'}
        maxLength={SEARCH_INPUT_MAX_LENGTH}
        placeholder={placeholder}
        value={inputValue}
        // The debounce counts from the press of the key that typed the text (a key held back by
        // a long task keeps its time). Text typed before this box hydrated arrives as one input
        // event carrying the time of its last keystroke (`TYPED_AT_PROPERTY`).
        onChange={(event) => {
          const native = event.nativeEvent as Event & { [TYPED_AT_PROPERTY]?: number };
          autocomplete.setInputValue(event.target.value, native[TYPED_AT_PROPERTY] ?? keystrokes.typedAt(native));
        }}
        onKeyDown={(event) => {
          keystrokes.pressed(event.nativeEvent);
          autocomplete.onKeyDown(event);
        }}
        onKeyUp={keystrokes.released}
      />
      {status === 'stalled' ? <span className={`${className}__stalled`} aria-hidden="true" /> : null}
      <ul id={listboxId} role="listbox" aria-label={label} className={`${className}__listbox`} hidden={!expanded}>
        {expanded
          ? suggestions.map((suggestion, index) => (
              <li
                key={suggestion.objectID}
                id={`${listboxId}-${index}`}
                role="option"
                aria-selected={index === activeIndex}
                className={`${className}__option`}
                onPointerDown={(event) => event.preventDefault()}
                onPointerEnter={() => autocomplete.setActiveIndex(index)}
                onClick={() => autocomplete.select(index)}
              >
                <HighlightedText segments={highlightContainment(suggestion.title, inputValue)} />
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
