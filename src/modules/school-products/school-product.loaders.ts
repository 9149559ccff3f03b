import { byIdLoader, childrenLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { childConnectionLoaders } from '../../graphql/pagination.js';
import {
  schoolProductCategories,
  schoolProductClassTeachers,
  schoolProductGalleryMedia,
  schoolProducts,
  schoolProductTopics,
} from './school-product.table.js';
import { schoolProductCourses, schoolProductPaths } from './school-product-content.table.js';

export const schoolProductById = byIdLoader('schoolProduct.byId', schoolProducts);
export const topicById = byIdLoader('schoolProductTopic.byId', schoolProductTopics);
export const topicsOfProduct = childrenLoader('schoolProduct.topics', schoolProductTopics, schoolProductTopics.schoolProductId);
export const productsOfSchool = childConnectionLoaders('school.schoolProducts', schoolProducts, schoolProducts.schoolId, 'school');
export const categoryIdsOfProduct = linkedIdsLoader(
  'schoolProduct.categoryIds',
  schoolProductCategories,
  schoolProductCategories.schoolProductId,
  schoolProductCategories.categoryId,
  schoolProducts,
);
export const galleryMediaIdsOfProduct = linkedIdsLoader(
  'schoolProduct.galleryMediaIds',
  schoolProductGalleryMedia,
  schoolProductGalleryMedia.schoolProductId,
  schoolProductGalleryMedia.mediaId,
  schoolProducts,
  schoolProductGalleryMedia.position,
);
export const classTeacherIdsOfProduct = linkedIdsLoader(
  'schoolProduct.classTeacherIds',
  schoolProductClassTeachers,
  schoolProductClassTeachers.schoolProductId,
  schoolProductClassTeachers.userId,
  schoolProducts,
);

/** The product's own course ids and its path ids, in the product's order (the composition as written). */
export const courseIdsOfProduct = linkedIdsLoader(
  'schoolProduct.courseIds',
  schoolProductCourses,
  schoolProductCourses.schoolProductId,
  schoolProductCourses.courseId,
  schoolProducts,
  schoolProductCourses.position,
);
export const pathIdsOfProduct = linkedIdsLoader(
  'schoolProduct.pathIds',
  schoolProductPaths,
  schoolProductPaths.schoolProductId,
  schoolProductPaths.pathId,
  schoolProducts,
  schoolProductPaths.position,
);
