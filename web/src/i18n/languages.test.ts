import { describe, expect, it } from 'vitest';
import { languageTag, LANGUAGE_COOKIE, otherLanguages, storedLanguage } from './index';
import { preferredLanguage } from './languages';

describe('the page language', () => {
  it('follows the first of the browser languages it speaks, by primary subtag, else English', () => {
    expect(preferredLanguage(['es-MX', 'en-US'])).toBe('es');
    expect(preferredLanguage(['fr-FR', 'ES', 'en'])).toBe('es');
    expect(preferredLanguage(['de-DE', 'fr'])).toBe('en');
    expect(preferredLanguage([])).toBe('en');
  });

  it('reads a choice kept in the cookie, and nothing else from it', () => {
    expect(storedLanguage(`a=1; ${LANGUAGE_COOKIE}=es; b=2`)).toBe('es');
    expect(storedLanguage(`${LANGUAGE_COOKIE}=pseudo`)).toBe('pseudo');
    expect(storedLanguage(`${LANGUAGE_COOKIE}=fr`)).toBeNull();
    expect(storedLanguage(`${LANGUAGE_COOKIE}=<script>`)).toBeNull();
    expect(storedLanguage('')).toBeNull();
  });

  it('formats as the language is written in the United States and offers the other languages', () => {
    expect(languageTag('es')).toBe('es-US');
    expect(languageTag('en')).toBe('en-US');
    expect(languageTag('pseudo')).toBe('en-US');
    expect(otherLanguages('es').map((l) => l.name)).toEqual(['English']);
    expect(otherLanguages('en').map((l) => l.name)).toEqual(['Español']);
  });
});
