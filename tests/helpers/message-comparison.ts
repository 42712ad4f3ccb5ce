/**
 * Compares one language's messages with the English ones: the same keys, ICU messages that parse, the same
 * arguments (names, kinds, select options, rich-text tags), every plural category the language's counts need, and
 * no text left in English unless the allow-list says it is the same word in that language.
 */
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";

type Messages = { [key: string]: string | Messages };

export function flatten(messages: Messages, prefix = ""): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === "string") flat.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

/** The plural categories a language selects for whole numbers (pl: one, few, many; fr: one, other). */
export function countCategories(locale: string): Set<string> {
  const rules = new Intl.PluralRules(locale);
  return new Set(Array.from({ length: 1001 }, (_, n) => rules.select(n)));
}

interface MessageShape {
  arguments: Set<string>;
  plurals: { argument: string; categories: string[] }[];
}

function shapeOf(elements: MessageFormatElement[], shape: MessageShape = { arguments: new Set(), plurals: [] }) {
  for (const element of elements) {
    if (element.type === TYPE.argument) shape.arguments.add(`{${element.value}}`);
    else if (element.type === TYPE.number) shape.arguments.add(`{${element.value}, number}`);
    else if (element.type === TYPE.date || element.type === TYPE.time) shape.arguments.add(`{${element.value}, date}`);
    else if (element.type === TYPE.tag) {
      shape.arguments.add(`<${element.value}>`);
      shapeOf(element.children, shape);
    } else if (element.type === TYPE.select) {
      shape.arguments.add(`{${element.value}, select, ${Object.keys(element.options).sort().join(" ")}}`);
      for (const option of Object.values(element.options)) shapeOf(option.value, shape);
    } else if (element.type === TYPE.plural) {
      shape.arguments.add(`{${element.value}, plural}`);
      shape.plurals.push({ argument: element.value, categories: Object.keys(element.options) });
      for (const option of Object.values(element.options)) shapeOf(option.value, shape);
    }
  }
  return shape;
}

function parsed(text: string): MessageShape | string {
  try {
    return shapeOf(parse(text));
  } catch (error) {
    return (error as Error).message;
  }
}

const sorted = (set: Set<string>) => [...set].sort().join(" ");
/** Whether a message has words of its own besides its arguments (`<{element}> {reason}` has none). */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/\{[^{}]*\}/g, ""));

/** Every problem of `locale`'s messages against English, one line each; none means whole. */
export function messageProblems(
  locale: string,
  english: Messages,
  translated: Messages,
  sameAsEnglish: readonly string[],
): string[] {
  const [source, target] = [flatten(english), flatten(translated)];
  const problems: string[] = [];
  for (const key of source.keys()) if (!target.has(key)) problems.push(`${key}: missing`);
  for (const key of target.keys()) if (!source.has(key)) problems.push(`${key}: not in English`);
  const needed = countCategories(locale);
  for (const [key, text] of target) {
    const englishText = source.get(key);
    if (englishText === undefined) continue;
    const [reference, shape] = [parsed(englishText), parsed(text)];
    if (typeof shape === "string" || typeof reference === "string") {
      problems.push(`${key}: does not parse (${typeof shape === "string" ? shape : `English: ${reference}`})`);
      continue;
    }
    if (sorted(shape.arguments) !== sorted(reference.arguments))
      problems.push(`${key}: arguments ${sorted(shape.arguments)} instead of ${sorted(reference.arguments)}`);
    for (const plural of shape.plurals) {
      const lacking = [...needed].filter((category) => !plural.categories.includes(category)).sort();
      if (lacking.length > 0) problems.push(`${key}: the plural of ${plural.argument} lacks ${lacking.join(", ")}`);
    }
    const word = text.replace(/\s*:$/, ""); // a label with its colon is the same word as without
    if (locale !== "en" && text === englishText && hasWords(text) && !sameAsEnglish.includes(word))
      problems.push(`${key}: still English (${JSON.stringify(text)})`);
  }
  return problems;
}
