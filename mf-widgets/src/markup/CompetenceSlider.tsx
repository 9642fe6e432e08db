import { SliderControls } from './SliderControls.js';

/** A competence card of the slider. */
export interface CompetenceCard {
  title: string;
  text: string;
  href: string;
  image: string;
  imageAlt: string;
}

export interface CompetenceSliderProps {
  title: string;
  cards: CompetenceCard[];
}

/**
 * Competence slider markup for mf-widgets: a row of cards that scrolls natively without script;
 * the widget shows one card, two from 960px, with buttons and swipe.
 */
export function CompetenceSlider({ title, cards }: CompetenceSliderProps) {
  if (cards.length === 0) return null;
  return (
    <section className="khs-widgets-block khs-widgets-competence-slider" data-widget="competence-slider" aria-label={title} aria-roledescription="carousel">
      <h2 className="khs-widgets-block__title">{title}</h2>
      <div className="khs-widgets-slider__viewport" data-slider-viewport="">
        <ul className="khs-widgets-slider__track" data-slider-track="">
          {cards.map((card) => (
            <li key={card.href} className="khs-widgets-slider__slide khs-widgets-competence-card" data-slider-slide="">
              <img className="khs-widgets-competence-card__image" src={card.image} alt={card.imageAlt} width={640} height={360} loading="lazy" decoding="async" />
              <h3 className="khs-widgets-competence-card__title">
                <a href={card.href}>{card.title}</a>
              </h3>
              <p className="khs-widgets-competence-card__text">{card.text}</p>
            </li>
          ))}
        </ul>
      </div>
      <SliderControls previousLabel="Previous competences" nextLabel="Next competences" />
    </section>
  );
}
