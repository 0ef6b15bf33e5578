// The run's tokenizer as a decoder of token ids to text.
export {
  BUNDLED_ENCODINGS,
  decoderFor,
  hfDecoder,
  o200kDecoder,
  readTokenizerFiles,
  slimTokenizerText,
  type TokenDecoder,
  type TokenizerFiles,
  type TokenizerReader,
} from "./decoder";
export { type DecodedText, textOf, tokenAt } from "./text-of";
export { Utf8Text } from "./utf8-of";
