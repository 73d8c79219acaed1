// Tables of uploaded files, document analysis and background jobs (see db/migrations/0007_documents.ts).
export interface DocumentTables {}
