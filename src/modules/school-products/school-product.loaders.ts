import { inSchool } from '../../auth/tenancy.js';
import { byIdLoader, childrenLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { childConnectionLoaders } from '../../graphql/pagination.js';
import {
  schoolProductCategories,
  schoolProductClassTeachers,
  schoolProductGalleryMedia,
  schoolProducts,
  schoolProductTopics,
} from './school-product.table.js';

export const schoolProductById = byIdLoader('schoolProduct.byId', schoolProducts);
export const topicById = byIdLoader('schoolProductTopic.byId', schoolProductTopics);
export const topicsOfProduct = childrenLoader('schoolProduct.topics', schoolProductTopics, schoolProductTopics.schoolProductId);
export const productsOfSchool = childConnectionLoaders('school.schoolProducts', schoolProducts, schoolProducts.schoolId, (ctx) =>
  inSchool(ctx, schoolProducts.schoolId),
);
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
