import type { PartCompressor } from './compressor'
import { BATCH_CHARACTERS, MAIN_NS, textElement, XML_HEAD } from './xml'
import { crc32, crc32Combine, gzipMember, type Entry } from './zip'

/**
 * The workbook's table of distinct texts; a cell holds the index of its text there. Given a compressor, each text's
 * element is compressed as the text is added: a pack's hundreds of thousands of texts are written and compressed while
 * its pages are read rather than after the last one. Only the head, whose counts are known at the end, is left for
 * finishStream, which writes it before the compressed elements.
 */
export class SharedStrings {
  private readonly indexes = new Map<string, number>()
  private references = 0
  private readonly stream: { compressor: PartCompressor; batch: string; size: number } | undefined
  private streamed: Promise<Omit<Entry, 'name'>> | undefined

  constructor(compressor?: PartCompressor) {
    if (compressor) this.stream = { compressor, batch: '', size: 0 }
  }

  indexOf(text: string): number {
    this.references += 1
    let index = this.indexes.get(text)
    if (index === undefined) {
      index = this.indexes.size
      this.indexes.set(text, index)
      if (this.stream) this.append(text)
    }
    return index
  }

  get streaming(): boolean {
    return this.stream !== undefined
  }

  private head(): string {
    return `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.references}" uniqueCount="${this.indexes.size}">`
  }

  *xml(): Generator<string> {
    yield this.head()
    let batch = ''
    for (const text of this.indexes.keys()) {
      batch += `<si>${textElement(text)}</si>`
      if (batch.length > BATCH_CHARACTERS) {
        yield batch
        batch = ''
      }
    }
    yield `${batch}</sst>`
  }

  private append(text: string): void {
    const stream = this.stream!
    stream.batch += `<si>${textElement(text)}</si>`
    if (stream.batch.length > BATCH_CHARACTERS) this.hand(stream.batch)
  }

  private hand(text: string): void {
    const stream = this.stream!
    const bytes = new TextEncoder().encode(text)
    stream.size += bytes.length
    stream.batch = ''
    stream.compressor.push(bytes)
  }

  /**
   * The part's deflate data once every text has been added: the head as a stored block (RFC 1951 §3.2.4) followed by
   * the elements' compressed data, and the CRC-32 of the whole, from the head's and the elements'.
   */
  finishStream(): Promise<Omit<Entry, 'name'>> {
    this.streamed ??= this.finishOnce()
    return this.streamed
  }

  private async finishOnce(): Promise<Omit<Entry, 'name'>> {
    if (!this.stream) throw new Error('Textes non compressés à mesure')
    this.hand(`${this.stream.batch}</sst>`)
    const body = gzipMember(await this.stream.compressor.finish(), this.stream.size)
    const head = new TextEncoder().encode(this.head())
    const data = new Uint8Array(5 + head.length + body.data.length)
    // Not the last block, stored: its 3 header bits then the rest of the byte, its length and that length's complement.
    data[0] = 0
    new DataView(data.buffer).setUint16(1, head.length, true)
    new DataView(data.buffer).setUint16(3, ~head.length & 0xffff, true)
    data.set(head, 5)
    data.set(body.data, 5 + head.length)
    return { data, crc: crc32Combine(crc32(head), body.crc, body.size), size: head.length + body.size }
  }
}
