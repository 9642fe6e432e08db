import type { ReactNode } from 'react';
import { ScrollControls } from './ScrollControls.js';

export interface ScrollTableProps {
  /** Caption of the table (also the name of its scroll region). */
  caption: string;
  columns: string[];
  /** Cells per row; the first cell is the row header. */
  rows: ReactNode[][];
}

/**
 * A wide table in a natively scrolling, keyboard-focusable region; mf-widgets adds
 * previous/next buttons that scroll 100px per press and are disabled at the ends.
 */
export function ScrollTable({ caption, columns, rows }: ScrollTableProps) {
  return (
    <section className="khs-widgets-block khs-widgets-scroll-table" data-widget="scroll-table" aria-label={caption}>
      <ScrollControls previousLabel={`Scroll ${caption} left`} nextLabel={`Scroll ${caption} right`} />
      <div className="khs-widgets-scroll-table__viewport" data-scroll-viewport="" tabIndex={0} role="region" aria-label={`${caption} (scrolls sideways)`}>
        <table className="khs-widgets-scroll-table__table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((cells, rowIndex) => (
              <tr key={rowIndex}>
                {cells.map((cell, cellIndex) =>
                  cellIndex === 0 ? (
                    <th key={cellIndex} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={cellIndex}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
