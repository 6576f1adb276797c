import type { PGlite } from '@electric-sql/pglite'

/** Files smaller than this grow by doubling, which costs little; larger ones grow by an eighth. */
const DOUBLING_LIMIT = 1024 * 1024

/** The part of Emscripten's in-memory file system (MEMFS) this module reads: a file's bytes and its length. */
interface MemoryFile {
  contents: Uint8Array | null
  usedBytes: number
}

/**
 * Gives each large file of an in-memory PGlite the room its next writes would otherwise make. MEMFS stores a file in
 * one array and, when a write passes the array's end, copies the whole file into one an eighth larger. A data
 * directory loaded from a dump fills each array exactly, so the first page a table or an index gained after a start
 * copied it whole (110 MB for the large dataset's rights, 60 ms during which every request waited): at start instead,
 * once, with the same room MEMFS would have made. Directories on disk (NodeFS) have no such arrays and are left alone.
 */
export function reserveGrowthOfLargeFiles(db: PGlite, dataDirectory: string): void {
  const fs = db.Module.FS
  const visit = (dir: string) => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue
      const file = `${dir}/${name}`
      const { node } = fs.lookupPath(file, {})
      if (fs.isDir(node.mode)) visit(file)
      else if (fs.isFile(node.mode)) reserveGrowth(node as unknown as MemoryFile)
    }
  }
  visit(dataDirectory)
}

function reserveGrowth(file: MemoryFile): void {
  const contents = file.contents
  if (!(contents instanceof Uint8Array) || file.usedBytes < DOUBLING_LIMIT || contents.length > file.usedBytes) return
  const grown = new Uint8Array(Math.ceil(file.usedBytes * 1.125))
  grown.set(contents.subarray(0, file.usedBytes))
  file.contents = grown
}
