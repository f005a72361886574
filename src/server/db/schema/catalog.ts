// Catalogue tables (clubs, teachers, banners, activities, goods, surveys): filled in by the catalogue work.
export {};
