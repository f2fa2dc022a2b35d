export { type AddedFile, type AddFileOutput, fileHelpers } from './add-file-output.ts';
export { type FileContent, inspect, type Measured, meter, toChunks } from './content.ts';
export {
  FileNotFoundError,
  FileReadError,
  FileTooLargeError,
  formatBytes,
  StorageQuotaExceededError,
} from './errors.ts';
export {
  describeFile,
  type FileFields,
  type FileOutput,
  fileFields,
  fileOutput,
  type NewFileOutput,
} from './file-output.ts';
export {
  type FileLimits,
  type FileOwner,
  type FileRecord,
  FileService,
  FileServiceToken,
  type NewFile,
  type TextPage,
} from './file-service.ts';
export { type FileLocation, type FileStore, FileStoreToken, type StoredBlob } from './file-store.ts';
export { LocalFileStore } from './local-file-store.ts';
export { displayName, mediaTypeOf } from './media-type.ts';
export { DEFAULT_FILE_LIMITS, type FilesPluginOptions, filesPlugin } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-files", "options": {...} }`. */
export { filesPluginFactory as default } from './plugin-factory.ts';
export { listFilesTool, readFileTool } from './tools.ts';
